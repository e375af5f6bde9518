"""Copy the spec files the lessons quote from a clone of modelcontextprotocol/modelcontextprotocol.

    python tests/claims/vendor_spec.py /path/to/modelcontextprotocol.git

Each file goes to tests/claims/spec/<tag>/<path> with one header line naming the tag and commit. The list is
every (tag, path) a `<!-- spec: TAG PATH -->` marker names in notebooks/ and solutions/; test_ledger.py fails on
a marker whose file is missing and on a vendored file no marker names.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HEADER = "VENDORED modelcontextprotocol/modelcontextprotocol tag {tag} commit {commit} path {path}\n"


def vendor(git_dir: str) -> None:
    from claims_ledger import SPEC, markdown_cells, spec_quotes

    wanted = sorted({(q.tag, q.path) for cell in markdown_cells() for q in spec_quotes(cell)})
    for tag, path in wanted:
        git = ["git", f"--git-dir={git_dir}"]
        commit = subprocess.run([*git, "rev-parse", f"{tag}^{{commit}}"], capture_output=True, text=True,
                                check=True).stdout.strip()
        text = subprocess.run([*git, "show", f"{tag}:{path}"], capture_output=True, text=True, check=True).stdout
        target = SPEC / tag / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(HEADER.format(tag=tag, commit=commit, path=path) + text, encoding="utf-8")
        print(f"{tag} {path} ({commit[:12]})")


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    vendor(sys.argv[1])

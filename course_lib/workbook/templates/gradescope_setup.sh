#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder's image (choose the Ubuntu 24.04 base
# image: the course needs Python 3.11 or newer). The course is installed from /autograder/source, which holds
# the course package and each exercise notebook's own setup and check cells, never the solutions.
set -euo pipefail
apt-get update -qq
DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3 python3-venv python3-pip bubblewrap
python3 -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "the course needs Python 3.11+: pick the Ubuntu 24.04 image")'
python3 -m venv /autograder/venv
/autograder/venv/bin/pip install --quiet /autograder/source
# Without bubblewrap a submission runs as an unprivileged user of its own, which must reach the course's Python
# (otherwise `course autograder --run` refuses to grade as root).
chmod o+x /autograder && chmod -R o+rX /autograder/venv /autograder/source
/autograder/venv/bin/course doctor

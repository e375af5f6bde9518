"""Characters a person does not see but a model reads: finding them, and making them visible.

Two kinds hide text. Format characters (Unicode category Cf: zero-width spaces and joiners, bidi
controls, and the tag characters U+E0000-U+E007F, which can spell ASCII) and the rest of Unicode's
Default_Ignorable_Code_Point set, which renderers draw as nothing: among them the 256 variation selectors
(U+FE00-U+FE0F and U+E0100-U+E01EF, category Mn). Variation selectors can carry one byte each, so a run
of them after a visible character hides a whole message.

One use is legitimate and common: a single VS15 or VS16 (U+FE0E, U+FE0F) after a symbol asks for its
text or emoji form ("❤️"). That one is kept; every other invisible character is reported and revealed.
"""

from __future__ import annotations

import unicodedata

DEFAULT_IGNORABLE: tuple[tuple[int, int], ...] = (
    (0x00AD, 0x00AD), (0x034F, 0x034F), (0x061C, 0x061C), (0x115F, 0x1160), (0x17B4, 0x17B5),
    (0x180B, 0x180F), (0x200B, 0x200F), (0x202A, 0x202E), (0x2060, 0x206F), (0x3164, 0x3164),
    (0xFE00, 0xFE0F), (0xFEFF, 0xFEFF), (0xFFA0, 0xFFA0), (0xFFF0, 0xFFF8), (0x1BCA0, 0x1BCA3),
    (0x1D173, 0x1D17A), (0xE0000, 0xE0FFF),
)
"""Unicode's Default_Ignorable_Code_Point ranges (DerivedCoreProperties.txt; stable since Unicode 6)."""
TAGS = range(0xE0000, 0xE0080)
"""Tag characters: U+E0020-U+E007E mirror printable ASCII."""
PRESENTATION = frozenset((0xFE0E, 0xFE0F))
"""VS15 and VS16: text or emoji presentation of the symbol before them."""


def variation_byte(char: str) -> int | None:
    """The byte a variation selector stands for (VS1-VS16 -> 0-15, VS17-VS256 -> 16-255), else None."""
    code = ord(char)
    if 0xFE00 <= code <= 0xFE0F:
        return code - 0xFE00
    if 0xE0100 <= code <= 0xE01EF:
        return code - 0xE0100 + 16
    return None


def is_ignorable(char: str) -> bool:
    """Whether a character is drawn as nothing: category Cf or Default_Ignorable_Code_Point."""
    code = ord(char)
    return unicodedata.category(char) == "Cf" or any(low <= code <= high for low, high in DEFAULT_IGNORABLE)


def _presentation(text: str, index: int) -> bool:
    """Whether text[index] is a lone VS15/VS16 right after a visible symbol (emoji or text style)."""
    if ord(text[index]) not in PRESENTATION or index == 0:
        return False
    before = text[index - 1]
    after = text[index + 1] if index + 1 < len(text) else ""
    return (unicodedata.category(before).startswith("S") and not is_ignorable(before)
            and not (after and variation_byte(after) is not None))


def hidden(text: str) -> list[str]:
    """Every invisible character in `text` as U+XXXX, except a lone presentation selector after a symbol."""
    return [f"U+{ord(char):04X}" for i, char in enumerate(text)
            if is_ignorable(char) and not _presentation(text, i)]


def _spelled(run: list[str]) -> str:
    """What a run of tag characters or variation selectors spells, for a person to read."""
    if all(ord(char) in TAGS for char in run):
        return "".join(chr(ord(char) - 0xE0000) if 0x20 <= ord(char) - 0xE0000 < 0x7F else "" for char in run)
    data = bytes(variation_byte(char) for char in run)
    return data.decode("utf-8", errors="replace")


def _pieces(text: str) -> list[tuple[str, str]]:
    """`text` cut into (kind, piece): "" visible text, "char" one invisible character, "run" a hidden run."""
    pieces: list[tuple[str, str]] = []
    run: list[str] = []
    kind = ""

    def close() -> None:
        if run:
            pieces.append(("run", "".join(run)) if kind == "tag" or len(run) > 1 else ("char", run[0]))
            run.clear()

    for i, char in enumerate(text):
        this = "tag" if ord(char) in TAGS else \
            "vs" if variation_byte(char) is not None and not _presentation(text, i) else ""
        if this != kind:
            close()
        kind = this
        if this:
            run.append(char)
        elif is_ignorable(char) and not _presentation(text, i):
            pieces.append(("char", char))
        else:
            pieces.append(("", char))
    close()
    return pieces


def reveal(text: str) -> str:
    """`text` with every invisible character shown: hidden runs decoded as ⟦hidden text: '…'⟧, others as ⟦U+XXXX⟧."""
    return "".join(f"⟦hidden text: {_spelled(list(piece))!r}⟧" if kind == "run"
                   else f"⟦U+{ord(piece):04X}⟧" if kind == "char" else piece
                   for kind, piece in _pieces(text))


def spelled(text: str) -> str:
    """Only what the hidden runs of `text` spell (tag characters as ASCII, variation selectors as bytes)."""
    return "".join(_spelled(list(piece)) for kind, piece in _pieces(text) if kind == "run")

"""Wrong: hashes only the description, so schema and annotation changes go unnoticed."""
import hashlib


def fingerprint(tool):
    return hashlib.sha256(tool.get("description", "").encode()).hexdigest()


answer = fingerprint
EXPECT = "the same fingerprint with the title"

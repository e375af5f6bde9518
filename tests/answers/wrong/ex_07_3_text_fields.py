"""Wrong: covers every text the model reads, but not the schemas' constraints or the annotations."""
import hashlib


def fingerprint(tool):
    parts = [tool.get("name", ""), tool.get("title", ""), tool.get("description", "")]
    for name, schema in sorted(tool.get("inputSchema", {}).get("properties", {}).items()):
        parts += [name, schema.get("description", "")]
    return hashlib.sha256("\x00".join(parts).encode()).hexdigest()


answer = fingerprint
EXPECT = "return a different fingerprint when the schemas or annotations change"

"""Bytes to conversations: files, the assembly of records, one reader per format."""

"""What an answer writes (SPEC §4, §9.5, 9, 11, 12, 16, 17); never asks the evidence."""

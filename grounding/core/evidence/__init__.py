"""What was read (SPEC §5, §9.1–4, 6, 7, 18–20); never reads the answer."""

"""How both sides spell a value (SPEC §3, §9.1–2, §9.14); imports nothing else in the package."""

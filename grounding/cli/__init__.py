"""The only code that reads argv, the environment and the working directory, and sets the exit code."""

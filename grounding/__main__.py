from grounding.cli import main

main()

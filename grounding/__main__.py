from grounding.cli.app import main

main()

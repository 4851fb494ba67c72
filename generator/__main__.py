from rulesdoc.cli.main import main

raise SystemExit(main())

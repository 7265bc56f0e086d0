from koloda.cli import main

raise SystemExit(main())

"""``python -m llmapp``: the same as the ``llmapp`` command."""

from llmapp._cli import main

raise SystemExit(main())

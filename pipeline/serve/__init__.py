"""``pokertables serve``: one long-lived local process answering the CLI's ``--json`` questions
over HTTP, with the artifacts opened and the kernels warm once, and the page in ``static/``.

* :mod:`pipeline.serve.app`: the FastAPI application (:func:`create_app`)
* :mod:`pipeline.serve.models`: the typed request bodies (fields named as the CLI's options)
* :mod:`pipeline.serve.security`: the safety defaults (local Host only, size and time caps, the
  bounded heavy-request lane)
* :mod:`pipeline.serve.jobs`: background jobs with progress, in memory only

The answers themselves come from :mod:`pipeline.answers`, the same functions the CLI prints.
"""

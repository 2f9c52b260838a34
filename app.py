"""The Hugging Face Space: launches rouge_plus's Gradio page (``rouge_plus.space.page``).

Run locally with ``python app.py``; the address comes from GRADIO_SERVER_NAME and
GRADIO_SERVER_PORT (default 127.0.0.1:7860). On a Space, ``rouge_plus`` is imported from this
directory (the script's own, first on ``sys.path``; the package directory wins over the
``rouge_plus.py`` beside it): the Space installs only ``requirements.txt``, the package's
dependencies. The C kernels are built here at start-up where the image has a C compiler (once:
they stay in this directory), else the pure-Python kernels run; the page says which.

All of it happens only when this file runs as the program: each worker process of a large
request imports it again (as ``__mp_main__``, as multiprocessing does), and needs no page.
"""

if __name__ == "__main__":
    from rouge_plus.space.memory import configure_allocator

    configure_allocator()  # before any thread allocates (see rouge_plus/space/memory.py)

    from pathlib import Path

    from rouge_plus.space.compiled import build_kernels

    build_kernels(Path(__file__).resolve().parent)  # before anything imports the kernels
    from rouge_plus.space.page import main

    main()

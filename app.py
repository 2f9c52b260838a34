"""The Hugging Face Space: launches rouge_plus's Gradio page (``rouge_plus.space.page``).

Run locally with ``python app.py``; the address comes from GRADIO_SERVER_NAME and
GRADIO_SERVER_PORT (default 127.0.0.1:7860). On a Space, ``rouge_plus`` is imported from this
directory (the script's own, first on ``sys.path``; the package directory wins over the
``rouge_plus.py`` beside it): the Space installs only ``requirements.txt``, the package's
dependencies, and runs the pure-Python kernels.
"""

from rouge_plus.space.page import build_demo, main

demo = build_demo()

if __name__ == "__main__":
    main(demo)

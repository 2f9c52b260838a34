"""The Hugging Face Space: launches rouge_plus's Gradio page (``rouge_plus.space.page``).

Run locally with ``python app.py``; the address comes from GRADIO_SERVER_NAME and
GRADIO_SERVER_PORT (default 127.0.0.1:7860).
"""

from rouge_plus.space.page import build_demo, main

demo = build_demo()

if __name__ == "__main__":
    main(demo)

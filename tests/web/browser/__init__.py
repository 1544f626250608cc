"""The web tests that drive a real headless Chromium (marked ``browser``)."""

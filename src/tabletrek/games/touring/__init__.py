"""Touring (公路旅行), the 1926 automobile card race."""

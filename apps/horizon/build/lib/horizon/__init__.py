"""Horizon: the reference app (research streams, reports, PubMed) built on pagechat."""

__all__: list[str] = []

"""The offline model: Horizon's assistant without a language model or network.

`OfflineModel` understands Horizon's common asks (search PubMed, look up a PMID,
summarise a report, list and describe streams, compare, and draft stream
settings as payload cards) and calls the real tools by name. It reads
everything from the request: the page and its state from the `<page_context>`
block the pages write (`horizon.page_text`), the tools from `request.tools` and
this turn's tool results from the history.
"""

from .model import DEFAULT_DELAY, OfflineModel
from .replies import OFFLINE_NOTE

__all__ = ["DEFAULT_DELAY", "OFFLINE_NOTE", "OfflineModel"]

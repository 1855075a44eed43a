"""The offline model: Horizon's assistant without a language model or network.

`OfflineModel` understands each page's main tasks however they are phrased (by
word overlap with each intent's phrasings: `intents`, `scoring`): search
PubMed, look up a PMID, summarise a report, list and describe streams,
compare, and draft stream settings as payload cards. It calls the real tools
by name. It reads everything from the request: the page and its state from the
page-context block the pages write (`horizon.page_text`, `horizon.page_state`), the
tools from `request.tools` and this turn's tool results from the history.
"""

from .model import DEFAULT_DELAY, OfflineModel
from .replies import OFFLINE_NOTE

__all__ = ["DEFAULT_DELAY", "OFFLINE_NOTE", "OfflineModel"]

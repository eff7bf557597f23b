"""A campaign's views for the host, every name as it was when this was one
module, so `from ..campaign import export as ex` and `ex.trackers(c)`,
`ex.live`, `ex.document`, ... work as before. Each job is a module:

- kinds.py: each system's kind names, a campaign's trackers and their
  difference, an event as a record.
- sentences.py: each system's events in words (the sentence's lead,
  verdict words, plural, article; Names).
- log.py: the log in words: live, recent, log (Entry), a damaged
  journal's runs.
- document.py: the export itself: the document, JSON and CSV.
"""

from .kinds import (  # noqa: F401
    system_name,
    kind_names,
    kind_name,
    kind_number,
    diff_trackers,
    trackers,
    event_record,
)
from .sentences import (  # noqa: F401
    VERDICTS,
    verdict_word,
    plural,
    article,
    Names,
    lead,
)
from .log import (  # noqa: F401
    kind_live,
    lead_live,
    live,
    recent,
    sentence,
    notes,
    outcome,
    Entry,
    log,
    run_records,
    utc,
)
from .document import (  # noqa: F401
    FORMAT,
    FORMAT_VERSION,
    sessions,
    document,
    to_json,
    CSV_COLUMNS,
    STATE_COLUMNS,
    FORMULA_START,
    to_csv,
    state_csv,
    render,
)

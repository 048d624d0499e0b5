"""The rule sets a table keeps (R11): saved under a name, shared by a code or a file, changed in
the editor, and the one answer to which rule set a request means (`choice`).

`service` writes the saved rule sets, `choice` reads which rule set a request names (a preset,
a saved one, a shared code, a game's), `forms` holds the editor's and the saved pages' forms,
`transfer` carries the saved rule sets in the score book's export, and `editor` and `pages`
only translate requests into calls to them.
"""

from __future__ import annotations

from flask import Flask

from . import editor, forms, pages, transfer
from . import models as models  # the table, in the metadata the migrations compare


def init_app(app: Flask) -> None:
    """Register the rule set editor and the saved rule sets' pages, the editor's reading of a
    sentence with controls in it (`forms.sentence_parts`) and the saved rule sets in the
    export."""
    app.register_blueprint(editor.bp)
    app.register_blueprint(pages.bp)
    app.add_template_filter(forms.sentence_parts, "sentence_parts")
    transfer.register(app)  # in the score book's export and import

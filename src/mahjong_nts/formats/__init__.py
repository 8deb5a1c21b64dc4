"""Formats on the edge of the core: the JSON contract (:mod:`.wire`), hand logs
(:mod:`.gamelog`, :mod:`.gamelog_schema`), rule-set files (:mod:`.rulefiles`) and
the generated rules document (:mod:`.rulesdoc`)."""

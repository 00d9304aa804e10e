"""An event's SQLite file: its schema, the event store, the live session's tables,
the audit log, the live secrets and the checks that a file can be written."""

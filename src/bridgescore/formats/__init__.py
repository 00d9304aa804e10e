"""Files from the field, read into and written from one board record."""

"""Readers and writers of the file formats bridge programs exchange."""

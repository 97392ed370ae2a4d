"""What archivists receive: the JSON and GEDCOM exports, the bundle and its verification."""

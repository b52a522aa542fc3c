"""The conformance vectors of spec/vectors, shipped with the package as data files."""

"""pokertables: precomputed poker lookup tables as HDF5/Parquet artifacts, and tools on them."""

__version__ = "0.1.0"

"""Build-time helpers for the jaxcb site (used by ``docs/hooks/jaxcb.py``).

Everything the site says about results is generated here from data: the
matrix files under ``docs/data/matrix/`` and the installed mechanism packages'
registries (``jaxcb_core.mechanisms.discover()``). Nothing in this package types
a result by hand.
"""

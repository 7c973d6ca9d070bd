"""The shipped data files, installed as the package ``evallib._data`` (see README.md here).

pyproject.toml maps this folder onto ``evallib._data``; evallib reads the files through
``importlib.resources`` (``evallib/_resources.py``), so they are found in a wheel as well
as in the repository.
"""

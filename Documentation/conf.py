# SPDX-License-Identifier: GPL-2.0
# Sphinx configuration of the documentation book (make docs).
project = 'rdmastor'
copyright = 'the rdmastor authors; GPL-2.0'
master_doc = 'index'
# the book's pages are its .rst files; results/ holds data the pages
# include, not pages
exclude_patterns = ['results']
html_theme = 'alabaster'

"""Tests of the cardtable Python API and CLI (a package so helper modules import cleanly)."""

"""Reduced from google/jaxite jaxite_ec/util.py:41: the chunk counts are module constants."""

U16_CHUNK_NUM = 24
U8_CHUNK_NUM = 48

"""Attachments: files and images a user sends with a message (docs/attachments.md).

`Attachments` checks, counts, stores and reads them for their owners; the bytes live
in an `AttachmentStorage` (`FileStorage`, a folder; `DatabaseStorage`, the database).
"""

from .inline import InlineFile, InlineRefused, attachment_url, inline_files, store_inline
from .service import (
    AttachmentInfo,
    AttachmentInUse,
    AttachmentNotFound,
    AttachmentQuota,
    Attachments,
    TooManyAttachments,
)
from .sniff import Refused, sniff
from .storage import AttachmentStorage, DatabaseStorage, FileStorage
from .upload import BadUpload, TooLarge, Upload, clean_name, receive_file

__all__ = [
    "AttachmentInUse",
    "AttachmentInfo",
    "AttachmentNotFound",
    "AttachmentQuota",
    "AttachmentStorage",
    "Attachments",
    "BadUpload",
    "DatabaseStorage",
    "FileStorage",
    "InlineFile",
    "InlineRefused",
    "Refused",
    "TooLarge",
    "TooManyAttachments",
    "Upload",
    "attachment_url",
    "clean_name",
    "inline_files",
    "receive_file",
    "sniff",
    "store_inline",
]

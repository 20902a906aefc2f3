import logging

Logger: logging.Logger

#!/bin/sh
# placeholder
exit 1

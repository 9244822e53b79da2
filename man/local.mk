# man/local.mk -- manual pages, shipped prebuilt.

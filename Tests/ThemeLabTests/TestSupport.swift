// Every file of this target sees the shared helpers (Tests/ThemeLabTestSupport) without importing them itself.
@_exported import ThemeLabTestSupport

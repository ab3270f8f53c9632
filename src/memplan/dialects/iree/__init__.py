"""IREE's dialects as memplan reads them: `stream` (`stream.py`, with its cmd,
executable and runtime ops in `stream_cmd.py`, `stream_executable.py`,
`stream_runtime.py`), `util` (`util.py`, `util_buffer.py`, `util_values.py`), `hal`,
`flow`, `iree_encoding` (`encoding.py`), `iree_tensor_ext` (`tensor_ext.py`) and
`check`. The interfaces util's ops implement are `memplan.util_interfaces`, beside
`memplan.interfaces`."""

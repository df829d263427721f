import ErrorWatchWire
print("errorwatch-load: not implemented yet")

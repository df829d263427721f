print("errorwatch: not wired yet")

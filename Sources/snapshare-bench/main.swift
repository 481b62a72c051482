print("snapshare-bench: not built yet")

print("make-default-character: not written yet")

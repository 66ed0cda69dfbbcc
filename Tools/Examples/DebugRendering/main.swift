import Bonework

print("DebugRendering: not written yet")

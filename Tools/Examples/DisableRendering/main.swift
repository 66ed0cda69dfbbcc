import Bonework

print("DisableRendering: not written yet")

import Bonework

print("DressUp: not written yet")

import Bonework

print("SimpleAnimation: not written yet")

import Bonework

print("PlayPauseAnimation: not written yet")

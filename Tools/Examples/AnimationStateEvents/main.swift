import Bonework

print("AnimationStateEvents: not written yet")

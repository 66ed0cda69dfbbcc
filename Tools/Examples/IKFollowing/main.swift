import Bonework

print("IKFollowing: not written yet")

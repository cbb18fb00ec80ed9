"""The hand-made history of the sizing tests (test_sizing_*.py): rows of A and B and what they give, every
number computed by hand in the comments."""

# Days after an origin; jitter puts some arrivals late in their day (hours), which truncation must ignore.
A_ROWS = [
    dict(id=1, k=1, t=5),
    dict(id=2, k=1, t=6, jitter=23),  # duplicate key: each A pairs with each B of k=1
    dict(id=3, k=2, t=5),
    dict(id=4, k=None, t=5),  # NULL key never pairs
    dict(id=5, k=3, t=None),  # NULL arrival never pairs
    dict(id=6, k=4, t=5),
    dict(id=7, k=5, t=8, jitter=22),
    dict(id=8, k=6, t=3),  # no B
]
B_ROWS = [
    dict(id=11, k=1, t=5, jitter=1),
    dict(id=12, k=1, t=7),
    dict(id=13, k=1, t=2),
    dict(id=14, k=2, t=15),
    dict(id=15, k=None, t=5),
    dict(id=16, k=3, t=5),
    dict(id=17, k=4, t=None),
    dict(id=18, k=5, t=8, jitter=1),
    dict(id=19, k=7, t=1),  # no A
]
# a=5 (k=1): 0, 2, −3; a=6 (k=1): −1, 1, −4; k=2: 10; k=5: 0 (22:00 vs 01:00 of the same day).
HAND_HISTOGRAM = {-4: 1, -3: 1, -1: 1, 0: 2, 1: 1, 2: 1, 10: 1}
# n = 8, sorted: −4 −3 −1 0 0 1 2 10. Ranks max(1, ceil(8p)): 1 1 1 2 4 6 8 8 8.
HAND_QUANTILES = {0.001: -4, 0.01: -4, 0.05: -4, 0.25: -3, 0.5: 0, 0.75: 1, 0.95: 10, 0.99: 10, 0.999: 10}

# One row per A on the same history. A rows with a known arrival: 1, 2, 3, 4, 6, 7, 8 (5 has none).
#   1 (k=1, a=5): B at 5, 7, 2 → nearest at or before: 5 (a − b = 0); at or after: 5 (b − a = 0)
#   2 (k=1, a=6): B at 5, 7, 2 → before: 5 (1); after: 7 (1)
#   3 (k=2, a=5): B at 15 → before: none; after: 10
#   7 (k=5, a=8 at 22:00): B at 8 (01:00) → (0, 0)
#   4 (NULL key), 6 (k=4: its B has no arrival), 8 (k=6: no B): no partner at all
HAND_NEAREST = {(0, 0): 2, (1, 1): 1, (None, 10): 1}

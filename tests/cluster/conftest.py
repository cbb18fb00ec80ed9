"""The multi-process cluster tests (tests/cluster): a standalone master, two workers and a Thrift Server on them."""


def pytest_configure(config):
    config.addinivalue_line("markers", "cluster: runs dbt on a local standalone Spark cluster (tests/cluster)")

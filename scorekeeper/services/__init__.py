"""Application services: what views and the API call to get work done."""

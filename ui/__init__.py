"""The Streamlit app: thin pages that compose agent and bench."""

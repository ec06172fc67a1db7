"""The self-healing loop, a LangGraph graph: coder -> executor -> (coder | chooser | end).

graph       the graph, built in one place       nodes       what each node does, and where the loop goes next
state       what one solve knows at every step  prompts     every prompt the model reads, by version
extract     the code in a model's answer        probes      inputs to tell candidates' behaviours apart
choice      the chooser's rule                  candidates  typed views of a state's candidates, for readers
studio      the graph for LangGraph Studio (langgraph.json)
answer_cleaning  the answer without the model's own tests and demos, before it is judged (extract calls it)
load_failure     why a candidate was lost when its code was loaded, told from its report
"""
